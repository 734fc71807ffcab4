// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.graphics;

public final class Insets {
    public final int left = 0;
    public final int top = 0;
    public final int right = 0;
    public final int bottom = 0;

    public static Insets max(Insets a, Insets b) {
        return null;
    }
}
