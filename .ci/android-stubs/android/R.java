// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android;

public final class R {
    public static final class attr {
        public static final int textSelectHandleWindowStyle = 0x010102c8;
        public static final int textSelectHandleLeft = 0x010102c5;
        public static final int textSelectHandleRight = 0x010102c6;
        public static final int textSelectHandle = 0x010102c7;
        public static final int actionModeCutDrawable = 0x01010311;
        public static final int actionModeCopyDrawable = 0x01010312;
        public static final int actionModePasteDrawable = 0x01010313;
        public static final int actionModeSelectAllDrawable = 0x0101037e;
        public static final int colorAccent = 0x01010435;
    }

    public static final class string {
        public static final int cut = 0x01040003;
        public static final int copy = 0x01040001;
        public static final int paste = 0x0104000b;
        public static final int selectAll = 0x0104000d;
    }
}
