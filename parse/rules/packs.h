/*
 * packs.h - the format packs: rules files shipped in formats/ that read the
 * logs of common training frameworks out of the box (Hugging Face Trainer,
 * Lightning, Megatron-LM, ...). They are compiled in (build/parse/packs_data.c,
 * generated from the formats directory) so the tools need no installed data, and
 * installed as plain files for reading and copying.
 *
 * tp_rules_setup builds the rule set every tool uses: the --rules files in
 * order, then the user's rules directory, then the selected packs.
 */
#ifndef TPROF_PACKS_H
#define TPROF_PACKS_H

#include <stddef.h>

#include "rules.h"

struct tp_pack {
	const char *name;   /* "hf-trainer" */
	const char *source; /* "formats/01-hf-trainer.rules" */
	const char *text;
};

extern const struct tp_pack tp_packs[];
extern const size_t tp_npacks;

/* The pack of that name, or NULL. */
const struct tp_pack *tp_pack_find(const char *name, size_t n);

/* The rules directory: $XDG_CONFIG_HOME/tprof/rules.d, else
 * $HOME/.config/tprof/rules.d; into sb. 0 if neither variable is set. */
int tp_rules_dir(struct strbuf *sb);

#endif
