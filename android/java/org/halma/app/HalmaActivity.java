// Halma: the app's activity. SPDX-License-Identifier: GPL-3.0-or-later
package org.halma.app;

import android.app.NativeActivity;
import android.content.Intent;

/**
 * Android's NativeActivity, which loads libhalma.so and runs its android_main, plus the one
 * thing NativeActivity lacks for playing by message (#40).
 *
 * <p>The activity is singleTask (one game per device), so a game's message shared to Halma
 * while it is already running does not start a new activity: Android hands the new intent to
 * onNewIntent, which NativeActivity ignores, and getIntent() keeps returning the intent the
 * activity was started with. Keeping the new intent as the activity's intent lets the native
 * side read it on the onResume that always follows (src/app/share.rs, received_text, which
 * also removes the text once read so that it is applied once).
 */
public class HalmaActivity extends NativeActivity {
    @Override
    protected void onNewIntent(Intent intent) {
        super.onNewIntent(intent);
        setIntent(intent);
    }
}
