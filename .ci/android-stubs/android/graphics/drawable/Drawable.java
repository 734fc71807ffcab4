// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.graphics.drawable;

import android.graphics.ColorFilter;
import android.graphics.PorterDuff;

public abstract class Drawable {
    public int getIntrinsicWidth() {
        return 0;
    }

    public int getIntrinsicHeight() {
        return 0;
    }

    public abstract void setColorFilter(ColorFilter colorFilter);

    public void setColorFilter(int color, PorterDuff.Mode mode) {}
}
