"""Small synthetic archives with the layouts of the real ones, for fast loader tests.

Nothing here is real data: the documents are made-up sentences, written into archives
with the same member names and markup as Reuters-21578, 20news-bydate and livedoor news.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path


def _tar(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, content in sorted(members.items()):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return path


def reuters_doc(
    newid: int, topics: list[str], title: str | None, body: str | None, split: str = "TRAIN"
) -> str:
    """One ``<REUTERS>`` element in Reuters-21578's markup."""
    d = "".join(f"<D>{t}</D>" for t in topics)
    text = ""
    if title is not None:
        text += f"<TITLE>{title}</TITLE>\n"
    if body is not None:
        text += f"<DATELINE>    PLACE, Feb 26 - </DATELINE><BODY>{body}\n Reuter\n&#3;</BODY>"
    kind = "" if body is not None else ' TYPE="BRIEF"'
    return (
        f'<REUTERS TOPICS="YES" LEWISSPLIT="{split}" CGISPLIT="TRAINING-SET" OLDID="1" '
        f'NEWID="{newid}">\n<DATE>26-FEB-1987 15:01:01.79</DATE>\n<TOPICS>{d}</TOPICS>\n'
        f"<PLACES></PLACES>\n<TEXT{kind}>&#2;\n{text}</TEXT>\n</REUTERS>\n"
    )


def make_reuters(path: Path, docs: list[str]) -> Path:
    """``reuters21578.tar.gz`` with ``docs`` split over two .sgm files (latin-1)."""
    half = len(docs) // 2
    head = '<!DOCTYPE lewis SYSTEM "lewis.dtd">\n'
    return _tar(
        path,
        {
            "reut2-000.sgm": (head + "".join(docs[:half])).encode("latin-1"),
            "reut2-001.sgm": (head + "".join(docs[half:])).encode("latin-1"),
            "README.txt": b"fake",
        },
    )


def make_20news(path: Path, posts: dict[tuple[str, str], list[str]]) -> Path:
    """``20news-bydate.tar.gz``: ``posts[(split, group)]`` = bodies (a header is added)."""
    members = {}
    for (split, group), bodies in posts.items():
        for i, body in enumerate(bodies):
            text = f"From: someone@example.org\nSubject: about {group}\n\n{body}\n"
            members[f"20news-bydate-{split}/{group}/{1000 + i}"] = text.encode("latin-1")
    return _tar(path, members)


def make_livedoor(path: Path, articles: dict[str, list[tuple[str, str]]]) -> Path:
    """``ldcc-20140209.tar.gz``: ``articles[category]`` = [(title, body)]."""
    members = {"text/README.txt": b"readme"}
    for category, items in articles.items():
        members[f"text/{category}/LICENSE.txt"] = b"CC BY-ND 2.1 JP"
        for i, (title, body) in enumerate(items):
            aid = 5000000 + i
            text = (
                f"http://news.livedoor.com/article/detail/{aid}/\n"
                f"2012-09-01T10:00:00+0900\n{title}\n{body}\n"
            )
            members[f"text/{category}/{category}-{aid}.txt"] = text.encode("utf-8")
    return _tar(path, members)
