// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.widget;

import android.content.Context;
import android.graphics.drawable.Drawable;
import android.view.View;

public class ImageView extends View {
    public ImageView(Context context) {
        super(context);
    }

    public void setImageDrawable(Drawable drawable) {}

    public Drawable getDrawable() {
        return null;
    }
}
