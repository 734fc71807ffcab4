#!/usr/bin/env python3
"""Stands in for the build-tools' d8 where there is no Android SDK (.ci/android-package-check.sh,
the workflow dry run): takes d8's arguments (--output DIR, --lib JAR, --min-api N, --release,
class files) and writes DIR/classes.dex, which is not real Dalvik code but a dex header and the
type descriptor of each class given (Lorg/halma/app/HalmaActivity;), read from the class
files' constant pools: enough for the packaging and android/check-apk.sh's look for the
activity's class. The real d8 runs in the hosted build."""
import os
import struct
import sys


def class_name(path):
    data = open(path, "rb").read()
    if data[:4] != b"\xca\xfe\xba\xbe":
        sys.exit(f"d8 stand-in: {path} is not a class file")
    count = struct.unpack_from(">H", data, 8)[0]
    pool, offset, index = {}, 10, 1
    sizes = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}
    while index < count:
        tag = data[offset]
        if tag == 1:
            length = struct.unpack_from(">H", data, offset + 1)[0]
            pool[index] = data[offset + 3:offset + 3 + length]
            offset += 3 + length
        elif tag in sizes:
            pool[index] = data[offset + 1:offset + 1 + sizes[tag]]
            offset += 1 + sizes[tag]
        else:
            sys.exit(f"d8 stand-in: {path}: unknown constant tag {tag}")
        index += 2 if tag in (5, 6) else 1
    this_class = struct.unpack_from(">H", data, offset + 2)[0]
    return pool[struct.unpack_from(">H", pool[this_class], 0)[0]]


def main(args):
    output, classes, i = None, [], 0
    while i < len(args):
        if args[i] in ("--output", "--lib", "--classpath", "--min-api"):
            if args[i] == "--output":
                output = args[i + 1]
            i += 2
            continue
        if args[i].endswith(".class"):
            classes.append(args[i])
        elif not args[i].startswith("--"):
            sys.exit(f"d8 stand-in: unexpected argument {args[i]}")
        i += 1
    if not output or not classes:
        sys.exit("d8 stand-in: needs --output and class files")
    with open(os.path.join(output, "classes.dex"), "wb") as dex:
        dex.write(b"dex\n035\0")
        for path in classes:
            dex.write(b"L" + class_name(path) + b";\0")


if __name__ == "__main__":
    main(sys.argv[1:])
