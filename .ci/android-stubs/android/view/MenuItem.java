// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.view;

import android.graphics.drawable.Drawable;

public interface MenuItem {
    int getItemId();

    MenuItem setAlphabeticShortcut(char alphaChar);

    MenuItem setIcon(Drawable icon);
}
