// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.text;

public class Selection {
    public static int getSelectionStart(CharSequence text) {
        return 0;
    }

    public static int getSelectionEnd(CharSequence text) {
        return 0;
    }

    public static void setSelection(Spannable text, int start, int stop) {}
}
