// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.view;

import android.graphics.Rect;

public final class WindowMetrics {
    public Rect getBounds() {
        return null;
    }

    public WindowInsets getWindowInsets() {
        return null;
    }
}
