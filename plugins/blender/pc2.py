# SPDX-License-Identifier: GPL-3.0-or-later
"""PC2 (Point Cache 2) files, the format Blender's Mesh Cache modifier plays. No bpy here.

Layout (little endian): the 12-byte signature ``POINTCACHE2\\0``, int32 version (1), int32
vertex count, float32 start frame, float32 sampling (frames per sample), int32 sample count,
then every sample as vertex count × (x, y, z) float32. A frame is appended data first and then
published by rewriting the sample count, so a reader never sees a count without its data.
"""

import os
import struct

import numpy as np

SIGNATURE = b"POINTCACHE2\0"
VERSION = 1
HEADER = struct.Struct("<12siiffi")
_COUNT_OFFSET = HEADER.size - 4


class PC2Writer:
    """Writes a PC2 file frame by frame; the file is valid (and playable) after every frame.
    With ``keep``, continues an existing file after its first ``keep`` samples (a resumed bake)."""

    def __init__(self, path, vertex_count, start_frame, sampling=1.0, keep=None):
        self.path = os.fspath(path)
        self.vertex_count = int(vertex_count)
        self.samples = 0
        if keep is not None:
            self._reopen(float(start_frame), float(sampling), int(keep))
            return
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        self._file = open(self.path, "wb")
        self._file.write(HEADER.pack(SIGNATURE, VERSION, self.vertex_count, float(start_frame), float(sampling), 0))
        self._file.flush()

    def _reopen(self, start_frame, sampling, keep):
        """Continues an existing file after its first ``keep`` samples (later ones are cut off).
        ValueError if the file is not a PC2 file of this vertex count, start and sampling, or
        holds fewer samples."""
        self._file = open(self.path, "r+b")
        try:
            head = self._file.read(HEADER.size)
            if len(head) != HEADER.size:
                raise ValueError(f"{self.path}: too short for a PC2 header")
            signature, version, n, start, step, count = HEADER.unpack(head)
            size = os.fstat(self._file.fileno()).st_size
            whole = min(count, (size - HEADER.size) // (12 * max(n, 1)))
            if signature != SIGNATURE or version != VERSION or n != self.vertex_count:
                raise ValueError(f"{self.path}: not a PC2 file of {self.vertex_count} vertices")
            if start != start_frame or step != sampling or whole < keep:
                raise ValueError(f"{self.path}: holds {whole} samples from frame {start:g}, "
                                 f"{keep} from frame {start_frame:g} expected")
            self._file.truncate(HEADER.size + keep * 12 * n)
            self._file.seek(_COUNT_OFFSET)
            self._file.write(struct.pack("<i", keep))
            self._file.flush()
        except BaseException:
            self._file.close()
            raise
        self.samples = keep

    def append(self, positions):
        """Appends one sample: ``positions`` (vertex_count, 3), converted to float32."""
        data = np.ascontiguousarray(positions, dtype="<f4")
        if data.shape != (self.vertex_count, 3):
            raise ValueError(f"PC2 sample: expected ({self.vertex_count}, 3), got {data.shape}")
        self._file.seek(0, os.SEEK_END)
        self._file.write(data.tobytes())
        self._file.flush()
        self.samples += 1
        self._file.seek(_COUNT_OFFSET)
        self._file.write(struct.pack("<i", self.samples))
        self._file.flush()

    def close(self):
        """Closes the file (idempotent)."""
        if not self._file.closed:
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def read_pc2(path):
    """(start frame, sampling, samples array of shape (count, vertex_count, 3) float32)."""
    with open(path, "rb") as f:
        head = f.read(HEADER.size)
        if len(head) != HEADER.size:
            raise ValueError(f"{path}: too short for a PC2 header")
        signature, version, n, start, sampling, count = HEADER.unpack(head)
        if signature != SIGNATURE:
            raise ValueError(f"{path}: not a PC2 file")
        data = np.frombuffer(f.read(count * n * 12), dtype="<f4")
    if data.size != count * n * 3:
        raise ValueError(f"{path}: header promises {count} samples of {n} vertices, the file is shorter")
    return start, sampling, data.reshape(count, n, 3)
