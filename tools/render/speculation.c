/* stub */
#include "draw.h"

void
draw_speculation(struct draw *d)
{
	(void)d;
}
