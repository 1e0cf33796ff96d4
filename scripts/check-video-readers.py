#!/usr/bin/python3
"""Checks that the video readers vLLM uses read the MP4 files LaneBench writes.

vLLM decodes a video_url with OpenCV (cv2.VideoCapture) and optionally PyAV. This script writes
builtin:multimodal-30's videos out with `lanebench-cli prompts export`, then opens each one with
both readers and checks the frame count, the frame size and the fps it was written with, and that
the square of the last frame has the colour it was drawn in (media.json gives what was drawn).

Debian: apt-get install python3-opencv python3-av (Debian's own python3, hence /usr/bin/python3).

Usage: scripts/check-video-readers.py [--cli PATH] [--keep DIR]
Exit status: 0 every video read right by both readers, 1 a reader failed, 2 usage or set-up error.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

TOLERANCE = 40  # per channel, 0-255: MPEG-4 artefacts move a flat colour by a few units


def colour_ok(rgb, want):
    return all(abs(int(g) - int(w)) <= TOLERANCE for g, w in zip(rgb, want))


def square_colour(frame_rgb, square):
    """Mean RGB of the middle of the square (its edges blur under compression)."""
    inset = square["side_px"] // 4
    x0, y0 = square["left_px"] + inset, square["top_px"] + inset
    x1, y1 = x0 + square["side_px"] - 2 * inset, y0 + square["side_px"] - 2 * inset
    patch = frame_rgb[y0:y1, x0:x1].reshape(-1, 3)
    return [round(float(c)) for c in patch.mean(axis=0)]


def read_cv2(path):
    import cv2

    cap = cv2.VideoCapture(path)
    if not cap.isOpened():
        return {"error": "cv2.VideoCapture did not open the file"}
    out = {
        "frames_header": int(cap.get(cv2.CAP_PROP_FRAME_COUNT)),
        "width_px": int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
        "height_px": int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)),
        "fps": cap.get(cv2.CAP_PROP_FPS),
    }
    decoded, last = 0, None
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        decoded, last = decoded + 1, frame
    cap.release()
    out["frames_decoded"] = decoded
    out["last_rgb"] = None if last is None else cv2.cvtColor(last, cv2.COLOR_BGR2RGB)
    return out


def read_av(path):
    import av

    try:
        with av.open(path) as container:
            stream = container.streams.video[0]
            out = {
                "frames_header": int(stream.frames),
                "width_px": stream.codec_context.width,
                "height_px": stream.codec_context.height,
                "fps": float(stream.average_rate) if stream.average_rate else 0.0,
            }
            decoded, last = 0, None
            for frame in container.decode(stream):
                decoded, last = decoded + 1, frame
            out["frames_decoded"] = decoded
            out["last_rgb"] = None if last is None else last.to_ndarray(format="rgb24")
            return out
    except Exception as e:  # PyAV raises its own error types per FFmpeg error
        return {"error": f"av.open failed: {e}"}


def check(entry, got):
    """Problems of one reader's view of one video, as short phrases (empty = all good)."""
    if "error" in got:
        return [got["error"]]
    problems = []
    for key in ("frames_header", "frames_decoded"):
        if got[key] != entry["frames"]:
            problems.append(f"{key} {got[key]} != {entry['frames']}")
    if (got["width_px"], got["height_px"]) != (entry["width_px"], entry["height_px"]):
        problems.append(f"size {got['width_px']}x{got['height_px']}")
    if abs(got["fps"] - entry["fps"]) > 1e-3:
        problems.append(f"fps {got['fps']:g} != {entry['fps']}")
    if got["last_rgb"] is None:
        problems.append("no last frame")
    else:
        rgb = square_colour(got["last_rgb"], entry["last_square"])
        got["square_rgb"] = rgb
        if not colour_ok(rgb, entry["last_square"]["rgb"]):
            problems.append(f"last square {rgb} is not {entry['last_square']['colour']}")
    return problems


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.environ.get("LANEBENCH_BUILD_DIR", os.path.join(root, "build"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", default=os.path.join(build, "app", "cli", "lanebench-cli"),
                        help="lanebench-cli to write the videos with")
    parser.add_argument("--keep", help="write the set into DIR and keep it (default: a temp dir)")
    args = parser.parse_args()
    try:
        import av  # noqa: F401
        import cv2  # noqa: F401
    except ImportError as e:
        print(f"check-video-readers: {e} (Debian: apt-get install python3-opencv python3-av)",
              file=sys.stderr)
        return 2
    if not os.access(args.cli, os.X_OK):
        print(f"check-video-readers: {args.cli} is not an executable lanebench-cli",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        out = args.keep or scratch
        export = subprocess.run([args.cli, "prompts", "export", "builtin:multimodal-30",
                                 "--out", out], capture_output=True, text=True)
        if export.returncode != 0:
            print(f"check-video-readers: export failed: {export.stderr.strip()}", file=sys.stderr)
            return 2
        with open(os.path.join(out, "media.json")) as f:
            videos = [e for e in json.load(f)["media"] if e["kind"] == "video"]
        import av
        import cv2
        print(f"OpenCV {cv2.__version__}, PyAV {av.__version__}: {len(videos)} videos")
        failed = 0
        for entry in videos:
            path = os.path.join(out, entry["file"])
            line = [f"{os.path.basename(path):26}"]
            for name, reader in (("cv2", read_cv2), ("av", read_av)):
                got = reader(path)
                problems = check(entry, got)
                failed += bool(problems)
                if problems:
                    line.append(f"{name} FAIL: {'; '.join(problems)}")
                else:
                    line.append(f"{name} ok {got['frames_decoded']} frames "
                                f"{got['width_px']}x{got['height_px']} {got['fps']:g} fps "
                                f"last {entry['last_square']['colour']} {got['square_rgb']}")
            print("  ".join(line))
        total = 2 * len(videos)
        print(f"{total - failed}/{total} reads right" + ("" if not failed else f", {failed} failed"))
        return 1 if failed or not videos else 0


if __name__ == "__main__":
    sys.exit(main())
