#!/usr/bin/env python3
"""Reads raw screenshots of the emulator (`adb exec-out screencap`, no -p) for .ci/android-emulator-test.sh.

Slint's Android backend has no accessibility bridge, so `uiautomator dump` sees no buttons: the
test finds what to tap by colour instead (the colours come from ui/theme.slint and ui/widgets.slint).

    emulator-screen.py find RAW KIND [--pick top|bottom|largest|near-centre]
        prints "x y" of the chosen blob of KIND, or nothing; KIND is one of
        primary  a primary button (#5b4ba8: Start, Resume game, Confirm)
        seat-a   a piece of seat A (#0072b2), all of them with --pick all, nearest the board's
                 centre first ("x y" a line)
        dot      a destination dot (#2e7d32 at 75 % over a square)
    emulator-screen.py board RAW     prints the share of the screen in board-square colours
    emulator-screen.py diff RAW RAW  prints the share of pixels that differ, in rows 8-92 %
                                     (not the status and navigation bars)

A raw screenshot is width, height, format (and on newer Androids a colour space) as 32-bit
little-endian words, then RGBA bytes; the header's length is what is left beside the pixels.
"""
import struct
import sys

STEP = 3  # every third pixel of every third row: blobs of interest are 30+ pixels wide


def load(path):
    data = open(path, "rb").read()
    width, height = struct.unpack_from("<II", data, 0)
    header = len(data) - width * height * 4
    if header not in (12, 16):
        sys.exit(f"{path}: not a raw RGBA screenshot ({width}x{height}, {len(data)} bytes)")
    return width, height, memoryview(data)[header:]


def near(colour, target, tolerance):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))


def is_kind(kind, r, g, b):
    if kind == "primary":
        return near((r, g, b), (0x5B, 0x4B, 0xA8), 10) or near((r, g, b), (0x4A, 0x3A, 0x8C), 10)
    if kind == "seat-a":
        return near((r, g, b), (0x00, 0x72, 0xB2), 14)
    if kind == "dot":
        return g > r + 35 and g > b + 35 and 110 < g < 190
    if kind == "board":
        return near((r, g, b), (0xEF, 0xE3, 0xC8), 4) or near((r, g, b), (0xE2, 0xD2, 0xAE), 4)
    raise SystemExit(f"unknown kind {kind}")


def grid(path, kind):
    width, height, pixels = load(path)
    cells = set()
    for y in range(0, height, STEP):
        row = y * width * 4
        for x in range(0, width, STEP):
            i = row + x * 4
            if is_kind(kind, pixels[i], pixels[i + 1], pixels[i + 2]):
                cells.add((x // STEP, y // STEP))
    return width, height, cells


def blobs(cells, minimum):
    """Connected groups of cells (8-neighbours) with at least `minimum` cells: (x, y, w, h, n)."""
    seen, found = set(), []
    for start in cells:
        if start in seen:
            continue
        stack, group = [start], []
        seen.add(start)
        while stack:
            cx, cy = stack.pop()
            group.append((cx, cy))
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    n = (cx + dx, cy + dy)
                    if n in cells and n not in seen:
                        seen.add(n)
                        stack.append(n)
        if len(group) >= minimum:
            xs, ys = [c[0] for c in group], [c[1] for c in group]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            found.append((((x0 + x1) // 2) * STEP, ((y0 + y1) // 2) * STEP, (x1 - x0 + 1) * STEP, (y1 - y0 + 1) * STEP, len(group)))
    return found


def main(argv):
    command = argv[1] if len(argv) > 1 else ""
    if command == "find" and len(argv) >= 4:
        kind = argv[3]
        pick = argv[argv.index("--pick") + 1] if "--pick" in argv else "largest"
        width, height, cells = grid(argv[2], kind)
        minimum = {"primary": 40, "seat-a": 12, "dot": 4}[kind]
        found = blobs(cells, minimum)
        if kind == "primary":  # a button is wider than high; text-sized specks are not buttons
            found = [b for b in found if b[2] >= 2 * b[3] // 3 and b[2] >= 60]
        if not found:
            return 0
        if pick == "all":
            # Nearest the board's centre first: the board blobs' centre stands in for it.
            _, _, board = grid(argv[2], "board")
            if board:
                bx = sum(c[0] for c in board) * STEP // len(board)
                by = sum(c[1] for c in board) * STEP // len(board)
            else:
                bx, by = width // 2, height // 2
            for b in sorted(found, key=lambda b: (b[0] - bx) ** 2 + (b[1] - by) ** 2):
                print(b[0], b[1])
            return 0
        chosen = {
            "top": lambda: min(found, key=lambda b: b[1]),
            "bottom": lambda: max(found, key=lambda b: b[1]),
            "largest": lambda: max(found, key=lambda b: b[4]),
        }[pick]()
        print(chosen[0], chosen[1])
        return 0
    if command == "board" and len(argv) == 3:
        width, height, cells = grid(argv[2], "board")
        print(f"{len(cells) / ((width // STEP + 1) * (height // STEP + 1)):.3f}")
        return 0
    if command == "diff" and len(argv) == 4:
        wa, ha, a = load(argv[2])
        wb, hb, b = load(argv[3])
        if (wa, ha) != (wb, hb):
            print("1.000")
            return 0
        differ = total = 0
        for y in range(int(ha * 0.08), int(ha * 0.92), STEP):
            row = y * wa * 4
            for x in range(0, wa, STEP):
                i = row + x * 4
                total += 1
                if a[i : i + 3] != b[i : i + 3]:
                    differ += 1
        print(f"{differ / max(total, 1):.3f}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
