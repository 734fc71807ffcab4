#!/usr/bin/env python3
"""A stand-in for the SDK's `zipalign -P 16`, for CI machines without the Android SDK.

Debian's zipalign (Android 10) knows only `-p` (4 KiB pages), not build-tools 35's `-P <KiB>`,
so .ci/android-package-check.sh runs android/build-apk.sh's packaging steps with this script as
`zipalign`. It implements the subset that build-apk.sh uses:

    zipalign.py [-f] [-v] [-p] [-P <KiB>] <align> in.zip out.zip   # align
    zipalign.py -c [-v] [-p] [-P <KiB>] <align> in.zip             # check only

Stored entries start at a multiple of <align> bytes; stored shared libraries (`*.so`) at a
multiple of the page size (`-P` KiB, or 4 KiB with `-p`). Padding goes into the local header's
extra field as the SDK's zipalign writes it (block 0xd935: the alignment, then zeros). The check
mode reads the local headers itself, independently of how the file was written.
"""

from __future__ import annotations

import struct
import sys
import zipfile

LOCAL_HEADER = struct.Struct("<IHHHHHIIIHH")  # signature ... name length, extra length
CENTRAL_HEADER = struct.Struct("<IHHHHHHIIIHHHHHII")
END_OF_DIRECTORY = struct.Struct("<IHHHHIIH")
ALIGNMENT_EXTRA_ID = 0xD935


def wanted_alignment(info: zipfile.ZipInfo, align: int, page: int | None) -> int:
    if info.compress_type != zipfile.ZIP_STORED:
        return 1
    if page and info.filename.endswith(".so"):
        return page
    return align


def data_offset(raw: bytes, info: zipfile.ZipInfo) -> tuple[int, bytes]:
    fields = LOCAL_HEADER.unpack_from(raw, info.header_offset)
    if fields[0] != 0x04034B50:
        raise SystemExit(f"zipalign.py: bad local header for {info.filename}")
    name_length, extra_length = fields[9], fields[10]
    start = info.header_offset + LOCAL_HEADER.size
    extra = raw[start + name_length : start + name_length + extra_length]
    return start + name_length + extra_length, extra


def check(path: str, align: int, page: int | None, verbose: bool) -> int:
    raw = open(path, "rb").read()
    bad = 0
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            offset, _ = data_offset(raw, info)
            alignment = wanted_alignment(info, align, page)
            ok = offset % alignment == 0
            if verbose or not ok:
                print(f"{offset:>10} {info.filename} (align {alignment}) {'OK' if ok else 'BAD'}")
            bad += not ok
    print(f"Verification {'succesful' if bad == 0 else 'FAILED'}")
    return 1 if bad else 0


def align_zip(source: str, target: str, align: int, page: int | None) -> None:
    raw = open(source, "rb").read()
    out = bytearray()
    central = bytearray()
    with zipfile.ZipFile(source) as archive:
        infos = archive.infolist()
        for info in infos:
            start, old_extra = data_offset(raw, info)
            data = raw[start : start + info.compress_size]
            # Keep the entry's own extra blocks except an earlier alignment block.
            kept = bytearray()
            position = 0
            while position + 4 <= len(old_extra):
                block_id, size = struct.unpack_from("<HH", old_extra, position)
                if block_id != ALIGNMENT_EXTRA_ID:
                    kept += old_extra[position : position + 4 + size]
                position += 4 + size
            name = info.orig_filename.encode("utf-8") if info.flag_bits & 0x800 else info.orig_filename.encode("cp437")
            header_offset = len(out)
            alignment = wanted_alignment(info, align, page)
            extra = bytes(kept)
            if alignment > 1:
                unpadded = header_offset + LOCAL_HEADER.size + len(name) + len(kept)
                padding = (-(unpadded + 6)) % alignment  # a 6-byte block at least: id, size, alignment
                extra = bytes(kept) + struct.pack("<HHH", ALIGNMENT_EXTRA_ID, 2 + padding, alignment) + bytes(padding)
            flags = info.flag_bits & ~0x08  # sizes are in the header: no data descriptor
            dos_time = (info.date_time[3] << 11) | (info.date_time[4] << 5) | (info.date_time[5] // 2)
            dos_date = ((info.date_time[0] - 1980) << 9) | (info.date_time[1] << 5) | info.date_time[2]
            out += LOCAL_HEADER.pack(
                0x04034B50, info.extract_version, flags, info.compress_type, dos_time, dos_date,
                info.CRC, info.compress_size, info.file_size, len(name), len(extra),
            )
            out += name + extra + data
            central += CENTRAL_HEADER.pack(
                0x02014B50, (info.create_system << 8) | info.create_version, info.extract_version, flags,
                info.compress_type, dos_time, dos_date, info.CRC, info.compress_size, info.file_size,
                len(name), 0, 0, 0, info.internal_attr, info.external_attr, header_offset,
            )
            central += name
    directory_offset = len(out)
    out += central
    out += END_OF_DIRECTORY.pack(0x06054B50, 0, 0, len(infos), len(infos), len(central), directory_offset, 0)
    with open(target, "wb") as file:
        file.write(out)


def main(arguments: list[str]) -> int:
    check_only = verbose = force = False
    page: int | None = None
    rest: list[str] = []
    iterator = iter(arguments)
    for argument in iterator:
        if argument == "-c":
            check_only = True
        elif argument == "-v":
            verbose = True
        elif argument == "-f":
            force = True
        elif argument == "-p":
            page = page or 4096
        elif argument == "-P":
            page = int(next(iterator)) * 1024
        else:
            rest.append(argument)
    if check_only and len(rest) == 2:
        return check(rest[1], int(rest[0]), page, verbose)
    if not check_only and len(rest) == 3:
        if not force:
            import os

            if os.path.exists(rest[2]):
                print(f"zipalign.py: {rest[2]} exists (use -f)", file=sys.stderr)
                return 1
        align_zip(rest[1], rest[2], int(rest[0]), page)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
