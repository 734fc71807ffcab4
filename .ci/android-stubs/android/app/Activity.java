// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.app;

import android.content.Context;
import android.view.View;
import android.view.ViewGroup;
import android.view.Window;
import android.view.WindowManager;
import android.window.OnBackInvokedDispatcher;

public class Activity extends Context {
    public final void runOnUiThread(Runnable action) {}

    public void addContentView(View view, ViewGroup.LayoutParams params) {}

    public Window getWindow() {
        return null;
    }

    public WindowManager getWindowManager() {
        return null;
    }

    public OnBackInvokedDispatcher getOnBackInvokedDispatcher() {
        return null;
    }

    public void finish() {}
}
