// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.view;

import android.graphics.Rect;

public abstract class ActionMode {
    public static final int TYPE_FLOATING = 1;
    public static final int DEFAULT_HIDE_DURATION = -1;

    public interface Callback {
        boolean onCreateActionMode(ActionMode mode, Menu menu);

        boolean onPrepareActionMode(ActionMode mode, Menu menu);

        boolean onActionItemClicked(ActionMode mode, MenuItem item);

        void onDestroyActionMode(ActionMode mode);
    }

    public abstract static class Callback2 implements Callback {
        public void onGetContentRect(ActionMode mode, View view, Rect outRect) {}
    }

    public abstract void setTitle(CharSequence title);

    public abstract void setSubtitle(CharSequence subtitle);

    public void setTitleOptionalHint(boolean titleOptional) {}

    public void invalidateContentRect() {}

    public void hide(long duration) {}

    public abstract void finish();
}
