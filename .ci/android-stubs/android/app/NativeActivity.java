// Stand-in for the Android platform's class, with only what android/java uses: lets javac check
// the app's Java code on a machine without the Android SDK (.ci/android-package-check.sh and the
// workflow dry run). The real build compiles against the SDK's android.jar.
package android.app;

import android.content.Intent;

public class NativeActivity extends Activity {
    protected void onNewIntent(Intent intent) {}

    public void setIntent(Intent newIntent) {}
}
