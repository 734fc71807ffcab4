// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.widget;

import android.content.Context;
import android.util.AttributeSet;
import android.view.View;

public class PopupWindow {
    public PopupWindow(Context context, AttributeSet attrs, int defStyleAttr) {}

    public void setSplitTouchEnabled(boolean enabled) {}

    public void setClippingEnabled(boolean enabled) {}

    public void setWidth(int width) {}

    public void setHeight(int height) {}

    public int getWidth() {
        return 0;
    }

    public void setContentView(View contentView) {}

    public void showAtLocation(View parent, int gravity, int x, int y) {}

    public void update(int x, int y, int width, int height) {}

    public void dismiss() {}
}
