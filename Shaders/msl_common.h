// Shared by msl_linked.metal and msl_common.metal: a function one file defines and the
// other calls, linked by the build as Metal's links a target's .metal files.
#ifndef MSL_COMMON_H
#define MSL_COMMON_H
struct MSLScale { float factor; float offset; };
float msl_scaled(float value, MSLScale scale);
#endif
