// Stand-in for the Android platform (see .ci/android-stubs/README.md): only what the Java code
// compiled here uses, with the real signatures; no behaviour.
package android.content.res;

import android.util.TypedValue;

public class Resources {
    public final class Theme {
        public TypedArray obtainStyledAttributes(int[] attrs) {
            return null;
        }

        public boolean resolveAttribute(int resid, TypedValue outValue, boolean resolveRefs) {
            return false;
        }
    }

    public Configuration getConfiguration() {
        return null;
    }
}
