// SPDX-License-Identifier: GPL-2.0
/*
 * tag_argv.c - a --tag-plugin string split into an argv the way a shell
 * would for plain words and quotes, with no expansion (tag_host.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tag_host.h"

/* ---- --tag-plugin command lines ------------------------------------- */

void tag_argv_free(char **argv)
{
	char **p;

	if (!argv)
		return;
	for (p = argv; *p; p++)
		free(*p);
	free(argv);
}

char **tag_split_argv(const char *cmd, char *err, size_t errlen)
{
	size_t n = strlen(cmd);
	char **argv = calloc(n / 2 + 2, sizeof(*argv));	/* at most this many words */
	char *word = malloc(n + 1);
	int argc = 0;
	const char *p = cmd;

	if (!argv || !word) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (;;) {
		size_t len = 0;
		bool in_word = false;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			in_word = true;
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');

				if (!q) {
					snprintf(err, errlen, "unterminated ' quote");
					goto fail;
				}
				memcpy(word + len, p + 1, q - p - 1);
				len += q - p - 1;
				p = q + 1;
			} else if (*p == '"') {
				for (p++; *p != '"'; p++) {
					if (!*p) {
						snprintf(err, errlen, "unterminated \" quote");
						goto fail;
					}
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					word[len++] = *p;
				}
				p++;
			} else if (*p == '\\') {
				if (!p[1]) {
					snprintf(err, errlen, "trailing backslash");
					goto fail;
				}
				word[len++] = p[1];
				p += 2;
			} else {
				word[len++] = *p++;
			}
		}
		if (in_word) {
			argv[argc] = strndup(word, len);
			if (!argv[argc++]) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
		}
	}
	if (!argc) {
		snprintf(err, errlen, "empty plugin command");
		goto fail;
	}
	free(word);
	return argv;
fail:
	free(word);
	tag_argv_free(argv);
	return NULL;
}
