// Stand-in for the Android platform's class (see ../app/NativeActivity.java).
package android.content;

public class Intent {}
