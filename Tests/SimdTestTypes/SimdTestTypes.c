#include "SimdTestTypes.h"

#include <stddef.h>

unsigned long test_vertex_size(void) { return sizeof(TestVertex); }
unsigned long test_uniforms_size(void) { return sizeof(TestUniforms); }
unsigned long test_uniforms_normal_matrix_offset(void) { return offsetof(TestUniforms, normalMatrix); }
unsigned long test_uniforms_light_direction_offset(void) { return offsetof(TestUniforms, lightDirection); }
unsigned long test_mixed_size(void) { return sizeof(TestMixed); }
