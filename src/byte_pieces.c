#include "byte_pieces.h"

ig_piece ig_byte_piece(uint64_t block_bytes, int n, int j)
{
    uint64_t base = block_bytes / (uint64_t)n, extra = block_bytes % (uint64_t)n, uj = (uint64_t)j;
    /* The first `extra` pieces are one byte longer. */
    ig_piece pc = { .offset = uj * base + (uj < extra ? uj : extra), .length = base + (uj < extra ? 1 : 0) };
    return pc;
}

int ig_byte_part_count(uint64_t piece_bytes, uint64_t part_bytes)
{
    if (part_bytes == 0 || piece_bytes <= part_bytes)
        return 1;
    return (int)((piece_bytes + part_bytes - 1) / part_bytes);
}

ig_piece ig_byte_part(ig_piece piece, uint64_t part_bytes, int u)
{
    if (part_bytes == 0 || piece.length <= part_bytes)
        return piece;
    uint64_t start = (uint64_t)u * part_bytes, rest = piece.length - start;
    return (ig_piece){ .offset = piece.offset + start, .length = rest < part_bytes ? rest : part_bytes };
}
