// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.view.inputmethod;

import android.os.IBinder;
import android.view.View;

public final class InputMethodManager {
    public void restartInput(View view) {}

    public void updateSelection(View view, int selStart, int selEnd, int candidatesStart, int candidatesEnd) {}

    public boolean showSoftInput(View view, int flags) {
        return false;
    }

    public boolean hideSoftInputFromWindow(IBinder windowToken, int flags) {
        return false;
    }
}
