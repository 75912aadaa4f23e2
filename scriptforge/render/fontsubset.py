"""A fast, byte-level font subset for the bundled fonts (used by the PDF writer).

WeasyPrint embeds each font as a subset that keeps glyph ids (``retain_gids``). Without the
HarfBuzz-subset library it does that with fontTools, which decompiles and recompiles every glyph
of the font: ~0.07 s per font per PDF, a third of writing a one-page sheet. The bundled fonts are
simple TrueType fonts (no composite glyphs, no layout tables, see ``tools/subset_fonts.py``), so
the same subset is a matter of copying the used glyphs' bytes into a new ``glyf`` table and
rewriting ``loca``: a few milliseconds, same glyph ids, same outlines.

``subset_keeping_gids`` returns None for anything it is not sure about (another font format, a
composite glyph); the caller then uses WeasyPrint's own subsetting.
"""

import struct

from scriptforge.io.paths import PACKAGE_DIR

KEEP_TABLES = ("head", "hhea", "maxp", "OS/2", "hmtx", "cmap", "name")
_bundled: dict[int, list[bytes]] | None = None


def is_bundled_font(data: bytes) -> bool:
    """Whether `data` is one of the font files in ``scriptforge/fonts`` (compared byte for byte:
    cheaper than hashing 400 KB for every font of every PDF)."""
    global _bundled
    if _bundled is None:
        _bundled = {}
        for path in sorted((PACKAGE_DIR / "fonts").glob("*.ttf")):
            content = path.read_bytes()
            _bundled.setdefault(len(content), []).append(content)
    return data in _bundled.get(len(data), ())


def subset_keeping_gids(data: bytes, to_unicode) -> bytes | None:
    """A TrueType font with the outlines of the glyphs of `to_unicode` (glyph id -> its text, as
    WeasyPrint passes them) and .notdef only, glyph ids unchanged. As HarfBuzz's subsetter does,
    the glyph table ends at the last glyph used (``loca`` and ``hmtx`` too) and the ``cmap`` maps
    only the characters used."""
    if data[:4] != b"\x00\x01\x00\x00":
        return None
    count = struct.unpack(">H", data[4:6])[0]
    tables = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * index:28 + 16 * index])
        tables[tag.decode("latin-1")] = data[offset:offset + length]
    if any(tag not in tables for tag in ("head", "maxp", "loca", "glyf", "hmtx", "hhea")):
        return None
    head = bytearray(tables["head"])
    long_loca = struct.unpack(">h", head[50:52])[0] == 1
    glyph_count = struct.unpack(">H", tables["maxp"][4:6])[0]
    loca_data, glyf = tables["loca"], tables["glyf"]
    if long_loca:
        loca = list(struct.unpack(f">{glyph_count + 1}I", loca_data[:4 * (glyph_count + 1)]))
    else:
        loca = [2 * x for x in struct.unpack(f">{glyph_count + 1}H", loca_data[:2 * (glyph_count + 1)])]
    keep = {0, *(int(g) for g in to_unicode if 0 <= int(g) < glyph_count)}
    kept_count = max(keep) + 1  # glyph ids stay: every glyph up to the last one used has an entry
    pieces, offsets, position = [], [], 0
    for gid in range(kept_count):
        offsets.append(position)
        if gid in keep and loca[gid + 1] > loca[gid]:
            glyph = glyf[loca[gid]:loca[gid + 1]]
            if struct.unpack(">h", glyph[:2])[0] < 0:  # a composite glyph: leave it to fontTools
                return None
            glyph += b"\x00" * (len(glyph) % 2)  # short loca offsets count in 2-byte words
            pieces.append(glyph)
            position += len(glyph)
    offsets.append(position)
    new_glyf = b"".join(pieces)
    short = position < 0x20000
    new_loca = (struct.pack(f">{kept_count + 1}H", *(o // 2 for o in offsets)) if short
                else struct.pack(f">{kept_count + 1}I", *offsets))
    head[50:52] = struct.pack(">h", 0 if short else 1)
    head[8:12] = b"\x00\x00\x00\x00"  # checkSumAdjustment, set below
    hhea, maxp = bytearray(tables["hhea"]), bytearray(tables["maxp"])
    metrics = struct.unpack(">H", hhea[34:36])[0]
    kept_metrics = min(metrics, kept_count)
    hmtx = tables["hmtx"]
    # the metrics of glyphs left out are zeros (as fontTools writes them: they compress to nothing)
    new_hmtx = b"".join(hmtx[4 * gid:4 * gid + 4] if gid in keep else b"\x00" * 4 for gid in range(kept_metrics))
    new_hmtx += b"".join(hmtx[4 * metrics + 2 * (gid - metrics):4 * metrics + 2 * (gid - metrics) + 2]
                         if gid in keep else b"\x00\x00" for gid in range(kept_metrics, kept_count))
    hhea[34:36] = struct.pack(">H", kept_metrics)
    maxp[4:6] = struct.pack(">H", kept_count)
    # post format 3: no glyph names (a PDF does not need them)
    old_post = tables.get("post", b"")[:32]
    post = (b"\x00\x03\x00\x00" + old_post[4:32]) if len(old_post) == 32 else None
    out_tables = {tag: tables[tag] for tag in KEEP_TABLES if tag in tables}
    if "name" in out_tables:
        out_tables["name"] = _names(out_tables["name"])
    out_tables.update({"head": bytes(head), "hhea": bytes(hhea), "maxp": bytes(maxp), "hmtx": new_hmtx,
                       "loca": new_loca, "glyf": new_glyf, "cmap": _cmap(to_unicode, kept_count)})
    if post:
        out_tables["post"] = post
    font = _assemble(out_tables)
    adjustment = (0xB1B0AFBA - _checksum(font)) & 0xFFFFFFFF
    entry = 12 + 16 * sorted(out_tables).index("head")  # head's directory entry
    table_offset = struct.unpack(">I", font[entry + 8:entry + 12])[0]
    return font[:table_offset + 8] + struct.pack(">I", adjustment) + font[table_offset + 12:]


def _names(table: bytes) -> bytes:
    """The name table with the Windows records of name ids 0-6 only (copyright, family, style,
    unique id, full name, version, PostScript name), as fontTools' subsetter keeps them."""
    _, count, start = struct.unpack(">HHH", table[:6])
    kept, strings = [], b""
    for index in range(count):
        record = struct.unpack(">HHHHHH", table[6 + 12 * index:18 + 12 * index])
        platform, encoding, language, name_id, length, offset = record
        if platform == 3 and name_id <= 6:
            kept.append((platform, encoding, language, name_id, length, len(strings)))
            strings += table[start + offset:start + offset + length]
    header = struct.pack(">HHH", 0, len(kept), 6 + 12 * len(kept))
    return header + b"".join(struct.pack(">HHHHHH", *record) for record in kept) + strings


def _cmap(to_unicode, glyph_count: int) -> bytes:
    """A cmap (format 4, Windows Unicode BMP) of the characters used: one segment per run of
    consecutive characters on consecutive glyphs, then the closing 0xFFFF segment."""
    pairs = sorted({(ord(text), int(gid)) for gid, text in to_unicode.items()
                    if isinstance(text, str) and len(text) == 1 and ord(text) < 0xFFFF and 0 < int(gid) < glyph_count})
    segments: list[list[int]] = []  # [start, end, delta]
    for point, gid in pairs:
        if segments and point == segments[-1][1] + 1 and (gid - point) % 65536 == segments[-1][2]:
            segments[-1][1] = point
        elif not segments or point > segments[-1][1]:
            segments.append([point, point, (gid - point) % 65536])
    segments.append([0xFFFF, 0xFFFF, 1])
    count = len(segments)
    power = 1
    while power * 2 <= count:
        power *= 2
    body = struct.pack(f">{count}H", *(end for _, end, _ in segments)) + b"\x00\x00"
    body += struct.pack(f">{count}H", *(start for start, _, _ in segments))
    body += struct.pack(f">{count}H", *(delta for _, _, delta in segments))
    body += b"\x00\x00" * count  # idRangeOffset: none
    subtable = struct.pack(">HHHHHHH", 4, 14 + len(body), 0, 2 * count, 2 * power, power.bit_length() - 1,
                           2 * count - 2 * power) + body
    return struct.pack(">HHHHI", 0, 1, 3, 1, 12) + subtable


def _checksum(data: bytes) -> int:
    data += b"\x00" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}I", data)) & 0xFFFFFFFF


def _assemble(tables: dict[str, bytes]) -> bytes:
    tags = sorted(tables)
    count = len(tags)
    power = 1
    while power * 2 <= count:
        power *= 2
    search_range = power * 16
    header = struct.pack(">IHHHH", 0x00010000, count, search_range, power.bit_length() - 1,
                         count * 16 - search_range)
    directory, body = [], []
    offset = 12 + 16 * count
    for tag in tags:
        table = tables[tag]
        directory.append(struct.pack(">4sIII", tag.encode("latin-1"), _checksum(table), offset, len(table)))
        padded = table + b"\x00" * (-len(table) % 4)
        body.append(padded)
        offset += len(padded)
    return header + b"".join(directory) + b"".join(body)
