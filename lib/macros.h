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

#endif
