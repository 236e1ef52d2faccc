/* stub */
#include "draw.h"

void
draw_stocks(struct draw *d)
{
	(void)d;
}
