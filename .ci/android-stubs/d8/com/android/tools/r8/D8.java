// Stand-in for d8, the build-tools' dexer (`com.android.tools.r8.D8` in `lib/d8.jar`), for
// .ci/android-check.sh: the android-build crate, which the build script of Slint's Android backend
// uses, runs `java -cp <d8.jar> com.android.tools.r8.D8 <d8's arguments>`. This hands the
// arguments to .ci/d8-standin.py (its path in HALMA_D8_STANDIN), which writes a classes.dex that
// is not real Dalvik code. Enough for a check: the backend only embeds that file's bytes
// (include_bytes!), and `cargo check` never links or runs them. See .ci/android-stubs/README.md.
package com.android.tools.r8;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public final class D8 {
    public static void main(String[] args) throws Exception {
        String script = System.getenv("HALMA_D8_STANDIN");
        if (script == null || script.isEmpty()) {
            System.err.println("d8 stand-in: HALMA_D8_STANDIN (the path of .ci/d8-standin.py) is not set");
            System.exit(2);
        }
        List<String> command = new ArrayList<>(Arrays.asList("python3", script));
        command.addAll(Arrays.asList(args));
        System.exit(new ProcessBuilder(command).inheritIO().start().waitFor());
    }
}
