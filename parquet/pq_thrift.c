// SPDX-License-Identifier: GPL-2.0
/*
 * pq_thrift.c - the Thrift compact protocol, write side only: what the
 * Parquet page headers and footer need (i8, i32, i64, bool, binary, lists,
 * nested structs).
 *
 * A field header is one byte (id delta << 4 | type) when the id is 1..15
 * above the previous field of the same struct, else the type byte and the
 * id as a zigzag varint.  Integers are zigzag varints, binary is a varint
 * length and the bytes, a bool field carries its value in the type nibble,
 * and a struct ends with a 0 (STOP) byte.  Field ids restart in every
 * nested struct, hence the per-depth "last" stack.
 */
#include "pq_priv.h"

void pq_thrift_init(struct pq_thrift *t, struct pq_buf *b)
{
	t->b = b;
	t->depth = 0;
	t->last[0] = 0;
}

static void field(struct pq_thrift *t, int16_t id, int type)
{
	int delta = id - t->last[t->depth];

	if (delta > 0 && delta <= 15) {
		pq_put_byte(t->b, (uint8_t)(delta << 4 | type));
	} else {
		pq_put_byte(t->b, (uint8_t)type);
		pq_put_uvarint(t->b, pq_zigzag(id));
	}
	t->last[t->depth] = id;
}

void pq_thrift_i16(struct pq_thrift *t, int16_t id, int16_t v)
{
	field(t, id, PQ_TC_I16);
	pq_put_uvarint(t->b, pq_zigzag(v));
}

void pq_thrift_i32(struct pq_thrift *t, int16_t id, int32_t v)
{
	field(t, id, PQ_TC_I32);
	pq_put_uvarint(t->b, pq_zigzag(v));
}

void pq_thrift_i64(struct pq_thrift *t, int16_t id, int64_t v)
{
	field(t, id, PQ_TC_I64);
	pq_put_uvarint(t->b, pq_zigzag(v));
}

/* i8 is written as the raw byte, not as a varint */
void pq_thrift_byte(struct pq_thrift *t, int16_t id, int8_t v)
{
	field(t, id, PQ_TC_BYTE);
	pq_put_byte(t->b, (uint8_t)v);
}

void pq_thrift_bool(struct pq_thrift *t, int16_t id, bool v)
{
	field(t, id, v ? PQ_TC_TRUE : PQ_TC_FALSE);
}

void pq_thrift_bin(struct pq_thrift *t, int16_t id, const void *p, size_t len)
{
	field(t, id, PQ_TC_BINARY);
	pq_put_uvarint(t->b, len);
	pq_put(t->b, p, len);
}

void pq_thrift_str(struct pq_thrift *t, int16_t id, const char *s)
{
	pq_thrift_bin(t, id, s, strlen(s));
}

static void push(struct pq_thrift *t)
{
	/* the schema is flat: nesting never goes deeper than a few levels */
	if (t->depth + 1 < PQ_THRIFT_DEPTH)
		t->depth++;
	else
		t->b->oom = true;	/* refuse rather than corrupt */
	t->last[t->depth] = 0;
}

void pq_thrift_struct_begin(struct pq_thrift *t, int16_t id)
{
	field(t, id, PQ_TC_STRUCT);
	push(t);
}

void pq_thrift_list_begin(struct pq_thrift *t, int16_t id, int elem_type, uint32_t n)
{
	field(t, id, PQ_TC_LIST);
	if (n < 15) {
		pq_put_byte(t->b, (uint8_t)(n << 4 | elem_type));
	} else {
		pq_put_byte(t->b, (uint8_t)(0xf0 | elem_type));
		pq_put_uvarint(t->b, n);
	}
}

void pq_thrift_list_i32(struct pq_thrift *t, int32_t v)
{
	pq_put_uvarint(t->b, pq_zigzag(v));
}

void pq_thrift_list_str(struct pq_thrift *t, const char *s)
{
	size_t n = strlen(s);

	pq_put_uvarint(t->b, n);
	pq_put(t->b, s, n);
}

void pq_thrift_elem_begin(struct pq_thrift *t)
{
	push(t);
}

void pq_thrift_end(struct pq_thrift *t)
{
	pq_put_byte(t->b, 0);
	if (t->depth > 0)
		t->depth--;
}
