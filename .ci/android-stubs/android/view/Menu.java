// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.view;

public interface Menu {
    int FIRST = 1;

    MenuItem add(int groupId, int itemId, int order, int titleRes);

    void setGroupDividerEnabled(boolean groupDividerEnabled);
}
