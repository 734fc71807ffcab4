// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.content;

public class ClipData {
    public static class Item {
        public CharSequence getText() {
            return null;
        }
    }

    public static ClipData newPlainText(CharSequence label, CharSequence text) {
        return null;
    }

    public Item getItemAt(int index) {
        return null;
    }
}
