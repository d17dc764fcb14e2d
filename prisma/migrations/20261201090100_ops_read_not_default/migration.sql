-- `ops.read` opens the platform's enquiry counts (the MCP tool `enquiry_list`), which are no project's: it is no
-- longer granted by default, and projects that hold it only because it was are granted it no more. Tokens minted
-- before keep it until they expire (an hour at most).
UPDATE "projects" SET "scopes" = array_remove("scopes", 'ops.read') WHERE 'ops.read' = ANY ("scopes");
