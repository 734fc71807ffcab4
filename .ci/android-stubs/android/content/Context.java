// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.content;

import android.content.res.Resources;
import android.content.res.TypedArray;

public abstract class Context {
    public static final String INPUT_METHOD_SERVICE = "input_method";
    public static final String CLIPBOARD_SERVICE = "clipboard";

    public Resources.Theme getTheme() {
        return null;
    }

    public Resources getResources() {
        return null;
    }

    public Object getSystemService(String name) {
        return null;
    }

    public final TypedArray obtainStyledAttributes(int[] attrs) {
        return null;
    }

    public final int getColor(int id) {
        return 0;
    }
}
