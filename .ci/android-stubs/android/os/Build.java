// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.os;

public class Build {
    public static class VERSION {
        // Not a compile-time constant on Android either (read from a system property).
        public static final int SDK_INT = Integer.getInteger("android.sdk", 0);
    }

    public static class VERSION_CODES {
        public static final int R = 30;
        public static final int UPSIDE_DOWN_CAKE = 34;
    }
}
