"""Fetch the project's assets: copy from a local mirror when it has the file, else
download the asset's URL. The MD5 checksum in project.yml is verified either way; a
missing or altered file is a clear error and nothing partial is left in assets/.

python scripts/get_assets.py --mirror ../shared/corpora/cd-sco
"""
import argparse
import hashlib
import shutil
import sys
import urllib.request
from pathlib import Path

import srsly

ROOT = Path(__file__).resolve().parents[1]


def md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def fetch(asset: dict, mirror: Path, root: Path = ROOT) -> str:
    dest = root / asset["dest"]
    want = asset["checksum"]
    if dest.exists() and md5(dest) == want:
        return "ok (already there)"
    tmp = dest.with_name(f".{dest.name}.part")
    dest.parent.mkdir(parents=True, exist_ok=True)
    source = mirror / Path(asset["dest"]).name
    try:
        if source.exists():
            shutil.copyfile(source, tmp)
            origin = f"mirror {source}"
        else:
            try:
                with urllib.request.urlopen(asset["url"], timeout=60) as r, open(tmp, "wb") as f:
                    shutil.copyfileobj(r, f)
            except OSError as err:
                raise SystemExit(
                    f"error: {Path(asset['dest']).name} is not in the mirror {mirror} and "
                    f"cannot be downloaded from {asset['url']}: {err}"
                )
            origin = f"url {asset['url']}"
        got = md5(tmp)
        if got != want:
            raise SystemExit(
                f"error: checksum mismatch for {Path(asset['dest']).name} from {origin}: "
                f"md5 {got}, expected {want} (altered or wrong file)"
            )
        tmp.replace(dest)
        return f"ok (from {origin})"
    finally:
        tmp.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, default=ROOT / ".." / "shared" / "corpora" / "cd-sco")
    parser.add_argument("--root", type=Path, default=ROOT, help="the project folder")
    args = parser.parse_args()
    root = args.root.resolve()
    mirror = args.mirror if args.mirror.is_absolute() else (root / args.mirror)
    for asset in srsly.read_yaml(root / "project.yml")["assets"]:
        print(f"{asset['dest']}: {fetch(asset, mirror, root)}", file=sys.stderr)


if __name__ == "__main__":
    main()
