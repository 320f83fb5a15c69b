#ifndef C_ANNA_ZLIB_H
#define C_ANNA_ZLIB_H

// The system's zlib (libz on Linux, the SDK's on Apple platforms), for gzip
// request bodies. deflateInit2 and inflateInit2 are macros in zlib.h, so Swift
// reaches them through these functions.
#include <zlib.h>

/// deflateInit2 with a gzip wrapper (windowBits 15 + 16), the default memory level
/// and strategy, at `level` (0-9).
int CAnnaZlib_deflateInitGzip(z_streamp stream, int level);

/// inflateInit2 accepting a gzip wrapper (windowBits 15 + 16), for tests and tools.
int CAnnaZlib_inflateInitGzip(z_streamp stream);

#endif
