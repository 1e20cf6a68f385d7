/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * macros.h - the few macros every layer uses.
 */
#ifndef CGS_MACROS_H
#define CGS_MACROS_H

#include <stddef.h>

/* The struct of @type whose @member @ptr points to. */
#define cgs_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* The number of elements of array @a; fails to compile on a pointer. */
#define CGS_MUST_BE_ARRAY_(a) (0 * sizeof(char[1 - 2 * \
	__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]))]))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + CGS_MUST_BE_ARRAY_(a))

#endif
