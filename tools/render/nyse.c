/* stub */
#include "draw.h"

void
draw_nyse(struct draw *d)
{
	(void)d;
}
