#define _POSIX_C_SOURCE 200809L /* newlocale, uselocale (also under -std=c11) */
#include "c_locale.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

/* The thread's locale while a number is read or written; without memory
 * for the locale object the program's stays (and numbers follow it, as
 * they would without this file). */
typedef struct {
    locale_t c, program;
} c_numeric;

static c_numeric c_numeric_begin(void)
{
    c_numeric n = { newlocale(LC_NUMERIC_MASK, "C", (locale_t)0), (locale_t)0 };
    if (n.c != (locale_t)0)
        n.program = uselocale(n.c);
    return n;
}

static void c_numeric_end(c_numeric n)
{
    if (n.c == (locale_t)0)
        return;
    uselocale(n.program);
    freelocale(n.c);
}

double ig_strtod_c(const char *text, char **end)
{
    c_numeric n = c_numeric_begin();
    double v = strtod(text, end);
    c_numeric_end(n);
    return v;
}

int ig_vsnprintf_c(char *buf, size_t size, const char *fmt, va_list ap)
{
    c_numeric n = c_numeric_begin();
    int len = vsnprintf(buf, size, fmt, ap);
    c_numeric_end(n);
    return len;
}

int ig_snprintf_c(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = ig_vsnprintf_c(buf, size, fmt, ap);
    va_end(ap);
    return len;
}
