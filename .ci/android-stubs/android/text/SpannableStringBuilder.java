// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.text;

public class SpannableStringBuilder implements CharSequence, Editable {
    public SpannableStringBuilder(CharSequence text) {}

    public SpannableStringBuilder replace(int start, int end, CharSequence tb) {
        return this;
    }

    public SpannableStringBuilder replace(int start, int end, CharSequence tb, int tbstart, int tbend) {
        return this;
    }

    public int length() {
        return 0;
    }

    public char charAt(int where) {
        return 0;
    }

    public CharSequence subSequence(int start, int end) {
        return this;
    }
}
