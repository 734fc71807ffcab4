// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.view;

import android.content.Context;

public abstract class ViewGroup extends View {
    public ViewGroup(Context context) {
        super(context);
    }

    public static class LayoutParams {
        public static final int MATCH_PARENT = -1;

        public LayoutParams(int width, int height) {}
    }

    public static class MarginLayoutParams extends LayoutParams {
        public MarginLayoutParams(int width, int height) {
            super(width, height);
        }
    }
}
