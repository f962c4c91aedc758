// n8n loads the package through the "n8n" attribute of package.json; nothing to export here.
