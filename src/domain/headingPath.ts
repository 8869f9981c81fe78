/** Joins the steps of a passage's heading path (`Variables › gc.auto`): outermost first, the entry last. */
export const HEADING_PATH_SEPARATOR = ' › ';
