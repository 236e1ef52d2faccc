/* stub */
#include "draw.h"

void
draw_daifugo(struct draw *d)
{
	(void)d;
}
