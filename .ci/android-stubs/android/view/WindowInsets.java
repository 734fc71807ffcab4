// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.view;

import android.graphics.Insets;

public final class WindowInsets {
    public static final class Type {
        public static int systemBars() {
            return 0;
        }

        public static int displayCutout() {
            return 0;
        }

        public static int ime() {
            return 0;
        }
    }

    public Insets getInsets(int typeMask) {
        return null;
    }

    public int getStableInsetLeft() {
        return 0;
    }

    public int getStableInsetTop() {
        return 0;
    }

    public int getStableInsetRight() {
        return 0;
    }

    public int getStableInsetBottom() {
        return 0;
    }
}
