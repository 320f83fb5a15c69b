#include "CAnnaZlib.h"

int CAnnaZlib_deflateInitGzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

int CAnnaZlib_inflateInitGzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}
