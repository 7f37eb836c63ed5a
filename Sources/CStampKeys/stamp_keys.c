#include "CStampKeys.h"

// The linker defines these for a section whose name is a C identifier, around the
// contents every object file gave it; weak, so that an executable without the section
// links and reads them as NULL. Referring to them also keeps the section through
// --gc-sections.
extern const unsigned char __start_swiftgpu_stamp_keys[] __attribute__((weak, visibility("hidden")));
extern const unsigned char __stop_swiftgpu_stamp_keys[] __attribute__((weak, visibility("hidden")));

const unsigned char *swiftgpu_stamp_keys(size_t *size) {
    if (__start_swiftgpu_stamp_keys == NULL || __stop_swiftgpu_stamp_keys == NULL) {
        *size = 0;
        return NULL;
    }
    *size = (size_t)(__stop_swiftgpu_stamp_keys - __start_swiftgpu_stamp_keys);
    return __start_swiftgpu_stamp_keys;
}
