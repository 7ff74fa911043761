// The same program compiled by nvcc: the GPU backend where a device is visible.
#include "main.cpp"
