// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.content;

public class ClipboardManager {
    public boolean hasPrimaryClip() {
        return false;
    }

    public ClipData getPrimaryClip() {
        return null;
    }

    public void setPrimaryClip(ClipData clip) {}
}
