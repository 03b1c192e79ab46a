/* SPDX-License-Identifier: MIT */
#ifndef SF_LIST_H
#define SF_LIST_H

#include <stddef.h>

/* An intrusive doubly-linked list, circular with a sentinel head. */
struct sf_list {
	struct sf_list *prev, *next;
};

static inline void
sf_list_init(struct sf_list *list)
{
	list->prev = list;
	list->next = list;
}

static inline void
sf_list_insert_tail(struct sf_list *list, struct sf_list *elm)
{
	elm->next = list;
	elm->prev = list->prev;
	list->prev->next = elm;
	list->prev = elm;
}

static inline void
sf_list_remove(struct sf_list *elm)
{
	elm->prev->next = elm->next;
	elm->next->prev = elm->prev;
	sf_list_init(elm);
}

static inline int
sf_list_empty(const struct sf_list *list)
{
	return list->next == list;
}

#define sf_container_of(ptr, type, member)				\
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* `pos` is a `type *`; removing `pos` while iterating needs _safe. */
#define sf_list_for_each(pos, head, type, member)			\
	for (type *pos = sf_container_of((head)->next, type, member);	\
	     &pos->member != (head);					\
	     pos = sf_container_of(pos->member.next, type, member))

#define sf_list_for_each_safe(pos, head, type, member)			\
	for (type *pos = sf_container_of((head)->next, type, member),	\
		  *pos##_next_ = sf_container_of(pos->member.next, type, member); \
	     &pos->member != (head);					\
	     pos = pos##_next_,						\
	     pos##_next_ = sf_container_of(pos->member.next, type, member))

#endif /* SF_LIST_H */
