// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.content.res;

import android.graphics.drawable.Drawable;

public class TypedArray {
    public Drawable getDrawable(int index) {
        return null;
    }

    public void recycle() {}
}
