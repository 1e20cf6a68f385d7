/*
 * array.h - the number of elements of an array, for tables whose length
 * the compiler counts (never by hand, never by a sizeof/sizeof at the use).
 */
#ifndef CGS_ARRAY_H
#define CGS_ARRAY_H

/* Fails to compile when @a is a pointer rather than an array. */
#define CGS_MUST_BE_ARRAY_(a) \
	(sizeof(struct { int x: __builtin_types_compatible_p( \
		__typeof__(a), __typeof__(&(a)[0])) ? -1 : 1; }) * 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + CGS_MUST_BE_ARRAY_(a))

#endif
