// The generated .digline/.gitignore: run documents, journals, removal records and the response
// cache stay out of git, and so does a temp file a crash left behind anywhere in the store;
// baselines and the register are committed. Apart from the store's barrel, so `digline init` names
// it without loading every backend.
export const STORE_GITIGNORE = '*/runs/\n*/removed/\n*/cache/\n.*.tmp\n'
