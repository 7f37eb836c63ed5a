#ifndef SWIFTGPU_CSTAMPKEYS_H
#define SWIFTGPU_CSTAMPKEYS_H

#include <stddef.h>

/// The bytes of the executable's `swiftgpu_stamp_keys` section and their count through
/// `size`: the 16-byte keys of the shader stamps the SPIRVCompiler plugin's builds made,
/// one for each target whose shaders it compiled (its generated source puts the key
/// there). NULL and 0 when the executable holds none (no target built shaders, or the
/// section is in another shared object than this code).
const unsigned char *swiftgpu_stamp_keys(size_t *size);

#endif
