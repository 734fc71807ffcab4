// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.view.inputmethod;

import android.text.Editable;
import android.text.Spannable;
import android.view.View;

public class BaseInputConnection implements InputConnection {
    public BaseInputConnection(View targetView, boolean fullEditor) {}

    public static int getComposingSpanStart(Spannable text) {
        return 0;
    }

    public static int getComposingSpanEnd(Spannable text) {
        return 0;
    }

    public Editable getEditable() {
        return null;
    }

    public boolean beginBatchEdit() {
        return false;
    }

    public boolean endBatchEdit() {
        return false;
    }
}
